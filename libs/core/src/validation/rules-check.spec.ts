import 'reflect-metadata';
import { ArrayMaxSize, getMetadataStorage, IsInt, IsString, Max, ValidateIf, validateSync } from 'class-validator';
import { memoizeValidationMetadata, passesRules } from './rules-check';
import { Optional } from './validation';

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
    expect(
      lookup(Child)
        .map((m) => m.propertyName)
        .sort(),
    ).toEqual(['count', 'count', 'name']);
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
    expect(
      lookup(Later)
        .map((m) => m.propertyName)
        .sort(),
    ).toEqual(['count', 'count', 'extra', 'name']);
    IsString()(Child.prototype, 'added');
    expect(
      lookup(Child)
        .map((m) => m.propertyName)
        .sort(),
    ).toEqual(['added', 'count', 'count', 'name']);
    expect(validateSync(Object.assign(new Child(), { name: 'a', count: 1, added: 2 })).map((e) => e.property)).toEqual(['added']);
  });

  it('keeps groups, always and strictGroups apart', () => {
    expect(storage.getTargetValidationMetadatas(Child, '', true, false, ['x'])).not.toBe(lookup(Child));
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, ['x'])).toEqual(original(Child, '', false, false, ['x']));
  });
});

describe('passesRules', () => {
  class Sent {
    @Optional()
    @IsInt()
    count?: number;

    // an unmarked condition reading another field: still called for an unsent value
    @ValidateIf((o: Sent) => o.count === 7)
    @IsString()
    label?: string;

    @Optional()
    @IsString({ each: true })
    @ArrayMaxSize(2)
    tags?: unknown;
  }
  const answer = (plain: Partial<Record<keyof Sent, unknown>>) => {
    const object = Object.assign(new Sent(), plain);
    return [passesRules(object), validateSync(object, { whitelist: true, forbidNonWhitelisted: true }).length === 0];
  };

  it('answers what validateSync answers, with Optional fields unsent, sent, and conditions on other fields', () => {
    for (const plain of [
      {},
      { count: 1 },
      { count: 'x' },
      { count: null },
      { count: 7 },
      { count: 7, label: 'a' },
      { tags: ['a', 'b'] },
      { tags: ['a', 1] },
      { tags: ['a', 'b', 'c'] },
    ]) {
      const [fast, slow] = answer(plain);
      expect({ plain, fast }).toEqual({ plain, fast: slow });
    }
  });
});
