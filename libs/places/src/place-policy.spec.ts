import { mayCallAction, ROLES } from '@app/core';
import { PLACE_ACTION_ROLES, placeVisibility, placeWriteDenial } from './place-policy';

describe('place policy', () => {
  const settings = (create: boolean, view: boolean) => ({ workers_create_places: create, workers_view_places: view });

  it('every role reaches every places action (the settings decide the rest)', () => {
    for (const role of ROLES)
      for (const action of Object.keys(PLACE_ACTION_ROLES) as Array<keyof typeof PLACE_ACTION_ROLES>)
        expect(mayCallAction(PLACE_ACTION_ROLES, role, action)).toBe(true);
  });

  it('staff always write places; workers only with workers_create_places', () => {
    expect(placeWriteDenial({ role: 'administrator', settings: settings(false, false) }, 'createplace')).toBeNull();
    expect(placeWriteDenial({ role: 'operator', settings: settings(false, false) }, 'deleteplace')).toBeNull();
    expect(placeWriteDenial({ role: 'worker', settings: settings(true, false) }, 'editplace')).toBeNull();
    expect(placeWriteDenial({ role: 'worker', settings: settings(false, true) }, 'createplace')).toBe(
      'a worker may not create places unless the company enables workers_create_places',
    );
    expect(placeWriteDenial({ role: 'worker', settings: settings(false, true) }, 'deleteplace')).toMatch(/may not delete places/);
  });

  it('workers without workers_view_places see their teams only; everyone else sees all', () => {
    expect(placeVisibility({ role: 'operator', settings: settings(false, false) }, [1])).toBe('all');
    expect(placeVisibility({ role: 'worker', settings: settings(false, true) }, [1])).toBe('all');
    expect(placeVisibility({ role: 'worker', settings: settings(false, false) }, [1, 2])).toEqual({ teams: [1, 2] });
    expect(placeVisibility({ role: 'worker', settings: settings(false, false) }, [])).toEqual({ teams: [] });
  });
});
