import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, Max, validateSync } from 'class-validator';
import { memoizeValidationMetadata } from './rules-check';

class Base {
  @IsString()
  name: string;
}

class Child extends Base {
  @IsInt()
  @Max(5)
  count: number;
}

describe('memoizeValidationMetadata', () => {
  const storage = getMetadataStorage();
  const original = storage.getTargetValidationMetadatas.bind(storage);
  const lookup = (cls: new () => object) => storage.getTargetValidationMetadatas(cls, '', false, false, undefined);

  beforeAll(() => memoizeValidationMetadata());

  it('answers what class-validator answers (own and inherited rules), the same frozen array each time', () => {
    expect(lookup(Child)).toEqual(original(Child, '', false, false, undefined));
    expect(lookup(Child).map((m) => m.propertyName).sort()).toEqual(['count', 'count', 'name']);
    expect(lookup(Child)).toBe(lookup(Child));
    expect(Object.isFrozen(lookup(Child))).toBe(true);
    expect(validateSync(Object.assign(new Child(), { name: 'a', count: 9 })).map((e) => e.property)).toEqual(['count']);
  });

  it('forgets its answers when a rule is registered later: a class defined afterwards, or a rule added to a known one', () => {
    expect(lookup(Child)).toHaveLength(3);
    class Later extends Child {
      @IsString()
      extra: string;
    }
    expect(lookup(Later).map((m) => m.propertyName).sort()).toEqual(['count', 'count', 'extra', 'name']);
    IsString()(Child.prototype, 'added');
    expect(lookup(Child).map((m) => m.propertyName).sort()).toEqual(['added', 'count', 'count', 'name']);
    expect(validateSync(Object.assign(new Child(), { name: 'a', count: 1, added: 2 })).map((e) => e.property)).toEqual(['added']);
  });

  it('keeps groups, always and strictGroups apart', () => {
    expect(storage.getTargetValidationMetadatas(Child, '', true, false, ['x'])).not.toBe(lookup(Child));
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, ['x'])).toEqual(original(Child, '', false, false, ['x']));
  });
});
