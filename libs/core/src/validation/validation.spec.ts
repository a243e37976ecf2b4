import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested, ValidationError, validateSync } from 'class-validator';
import {
  EMAIL_RULE,
  EmailOrEmpty,
  formatValidationErrors,
  isEmailText,
  IsIanaZone,
  isPhoneText,
  MsNotSeconds,
  Optional,
  PHONE_RULE,
  PhoneOrEmpty,
  Rule,
  validationIssues,
} from './validation';

class Stop {
  @IsString()
  name: string;

  @Optional()
  @IsInt()
  @Min(0)
  @Max(1439)
  time?: number;
}

class Route {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Stop)
  stops: Stop[];
}

class Body {
  @IsString()
  @MaxLength(5)
  name: string;

  @Optional()
  @IsString()
  nick?: string | null;

  @IsOptional()
  @IsString()
  legacy?: string | null;

  @Optional()
  @IsArray()
  @IsInt({ each: true })
  teams?: number[];

  @Optional()
  @Rule((v) => typeof v === 'number' && v % 2 === 0, 'must be an even number')
  even?: number;

  @Optional()
  @IsIanaZone()
  timezone?: string;

  @Optional()
  @ValidateNested()
  @Type(() => Route)
  route?: Route;
}

const STRICT = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false };

function check(plain: Record<string, unknown>, prefix?: string): string[] {
  const errors = validateSync(plainToInstance(Body, plain), STRICT);
  return prefix === undefined ? formatValidationErrors(errors) : formatValidationErrors(errors, prefix);
}

describe('formatValidationErrors', () => {
  it('returns nothing for a valid body', () => {
    expect(check({ name: 'Ana' })).toEqual([]);
    expect(
      check({ name: 'Ana', nick: 'a', teams: [1, 2], even: 4, timezone: 'Europe/Ljubljana', route: { stops: [{ name: 'x', time: 0 }] } }),
    ).toEqual([]);
  });

  it('writes one `data.field: rule` line per field, without repeating the property name', () => {
    expect(check({ name: 'toolong' })).toEqual(['data.name: must be shorter than or equal to 5 characters']);
  });

  it('names a wrong type as a type error, not as the range or format rules it also fails', () => {
    expect(check({ name: 123 })).toEqual(['data.name: must be a string']);
    expect(check({ name: 'Ana', route: { stops: [{ name: 'x', time: 'noon' }] } })).toEqual([
      'data.route.stops[0].time: must be an integer number',
    ]);
    expect(check({ name: 'Ana', teams: 'x' })).toEqual(['data.teams: must be an array']);
    expect(check({ name: 'Ana', route: 'x' })).toEqual(['data.route: nested property route must be either object or array']);
  });

  it('picks the type rule wherever it is written, else the first failing rule from the top', () => {
    class Order {
      @Min(0)
      @IsInt()
      late: number;

      @Optional()
      @MaxLength(3)
      @Matches(/^[a-z]+$/)
      @Rule((v) => v !== 'zzzz', 'must not be zzzz')
      code?: string;
    }
    const lines = (plain: object) => formatValidationErrors(validateSync(plainToInstance(Order, plain), STRICT));
    expect(lines({ late: 'x' })).toEqual(['data.late: must be an integer number']);
    expect(lines({ late: -1.5 })).toEqual(['data.late: must be an integer number']);
    expect(lines({ late: -1 })).toEqual(['data.late: must not be less than 0']);
    expect(lines({ late: 0, code: 'ABCD' })).toEqual(['data.code: must be shorter than or equal to 3 characters']);
    expect(lines({ late: 0, code: 'AB' })).toEqual(['data.code: must match /^[a-z]+$/ regular expression']);
    expect(lines({ late: 0, code: 'zzzz' })).toEqual(['data.code: must be shorter than or equal to 3 characters']);
  });

  it('names every failed field', () => {
    const lines = check({ name: 'Ana', nick: 5, even: 3 });
    expect(lines).toHaveLength(2);
    expect(lines).toEqual(expect.arrayContaining(['data.nick: must be a string', 'data.even: must be an even number']));
  });

  it('uses the given prefix, or none', () => {
    expect(check({ name: 1.5 }, 'body')).toContain('body.name: must be a string');
    expect(check({ name: 1.5 }, 'query')).toContain('query.name: must be a string');
    expect(check({ name: 1.5 }, '')).toContain('name: must be a string');
  });

  it('reports unknown fields as `unknown field`, also nested ones', () => {
    expect(check({ name: 'Ana', foo: 1 })).toEqual(['data.foo: unknown field']);
    expect(check({ name: 'Ana', route: { stops: [{ name: 'x' }, { name: 'y', colour: 'red' }], extra: true } }).sort()).toEqual([
      'data.route.extra: unknown field',
      'data.route.stops[1].colour: unknown field',
    ]);
  });

  it('writes nested paths, with [i] for array indexes', () => {
    const lines = check({ name: 'Ana', route: { stops: [{ name: 'ok' }, { name: 7 }, { name: 'late', time: 1440 }] } });
    expect(lines).toEqual(['data.route.stops[1].name: must be a string', 'data.route.stops[2].time: must not be greater than 1439']);
  });

  it('names the array itself for an `each` rule on a primitive array', () => {
    expect(check({ name: 'Ana', teams: [1, 'x'] })).toEqual(['data.teams: each value in teams must be an integer number']);
    expect(check({ name: 'Ana', teams: 'x' })).toEqual(expect.arrayContaining(['data.teams: must be an array']));
  });

  it('drops duplicate lines', () => {
    const errors: ValidationError[] = [
      Object.assign(new ValidationError(), { property: 'a', constraints: { isInt: 'a must be an integer number' }, children: [] }),
      Object.assign(new ValidationError(), { property: 'a', constraints: { isInt: 'a must be an integer number' }, children: [] }),
    ];
    expect(formatValidationErrors(errors)).toEqual(['data.a: must be an integer number']);
  });

  it('strips the property name only when the message starts with it', () => {
    const errors: ValidationError[] = [
      Object.assign(new ValidationError(), { property: 'name', constraints: { x: 'named badly' }, children: [] }),
      Object.assign(new ValidationError(), { property: 'nick', constraints: { y: 'nick must be set' }, children: [] }),
    ];
    expect(formatValidationErrors(errors)).toEqual(['data.name: named badly', 'data.nick: must be set']);
  });

  it('returns an empty list for no errors', () => {
    expect(formatValidationErrors([])).toEqual([]);
  });
});

describe('Optional', () => {
  it('lets an absent (undefined) field through', () => {
    expect(check({ name: 'Ana' })).toEqual([]);
    expect(check({ name: 'Ana', nick: undefined })).toEqual([]);
  });

  it('still validates null, unlike IsOptional', () => {
    expect(check({ name: 'Ana', nick: null })).toEqual(['data.nick: must be a string']);
    // class-validator's IsOptional lets null slip through
    expect(check({ name: 'Ana', legacy: null })).toEqual([]);
  });

  it('validates a present value', () => {
    expect(check({ name: 'Ana', nick: 5 })).toEqual(['data.nick: must be a string']);
    expect(check({ name: 'Ana', nick: '' })).toEqual([]);
  });

  it('still validates null for custom rules and nested objects', () => {
    expect(check({ name: 'Ana', even: null })).toEqual(['data.even: must be an even number']);
    expect(check({ name: 'Ana', timezone: null })).toEqual(['data.timezone: must be an IANA time-zone name such as Europe/Ljubljana']);
    expect(check({ name: 'Ana', route: null })).toEqual(['data.route: nested property route must be either object or array']);
  });
});

describe('Rule', () => {
  it('passes the value and the validation arguments to the predicate', () => {
    const seen: unknown[] = [];
    class Probe {
      @Rule((v, args) => {
        seen.push(v, args.property, args.object);
        return true;
      }, 'never')
      field: unknown;
    }
    const probe = Object.assign(new Probe(), { field: 42 });
    expect(validateSync(probe)).toEqual([]);
    expect(seen).toEqual([42, 'field', probe]);
  });

  it('uses `rule` as the message after the field name', () => {
    expect(check({ name: 'Ana', even: 3 })).toEqual(['data.even: must be an even number']);
    expect(check({ name: 'Ana', even: 2 })).toEqual([]);
  });

  it('lets options override the message', () => {
    class WithMessage {
      @Rule((v) => v === 'ok', 'ignored', { message: (a) => `got ${String(a.value)}` })
      field: unknown;
    }
    const errors = validateSync(Object.assign(new WithMessage(), { field: 'nope' }));
    expect(formatValidationErrors(errors)).toEqual(['data.field: got nope']);
  });

  it('runs on each element with { each: true }', () => {
    class Each {
      @Rule((v) => v === 1, 'must be 1', { each: true })
      ones: unknown[];
    }
    expect(validateSync(Object.assign(new Each(), { ones: [1, 1] }))).toEqual([]);
    expect(formatValidationErrors(validateSync(Object.assign(new Each(), { ones: [1, 2] })))).toEqual(['data.ones: must be 1']);
  });
});

describe('IsIanaZone', () => {
  it('accepts IANA zones and refuses everything else', () => {
    expect(check({ name: 'Ana', timezone: 'UTC' })).toEqual([]);
    expect(check({ name: 'Ana', timezone: 'Pacific/Kiritimati' })).toEqual([]);
    for (const tz of ['Mars/Base', '', 5]) {
      expect(check({ name: 'Ana', timezone: tz })).toEqual(['data.timezone: must be an IANA time-zone name such as Europe/Ljubljana']);
    }
  });
});

describe('field rules: phone and e-mail (docs/domain-rules.md "Field rules")', () => {
  class Contact {
    @Optional()
    @PhoneOrEmpty()
    phone?: unknown;

    @Optional()
    @EmailOrEmpty()
    email?: unknown;
  }
  const issues = (body: object) => validationIssues(validateSync(plainToInstance(Contact, body), STRICT));

  it.each(['+1 (555) 123-4567 x89', '0800 FLOWERS', '12', 'call reception', 'x'.repeat(64), '☎'.repeat(64), '📞'.repeat(64), ''])(
    'accepts the phone %j',
    (phone) => {
      expect(isPhoneText(phone)).toBe(true);
      expect(issues({ phone })).toEqual([]);
    },
  );

  it.each(['x'.repeat(65), '☎'.repeat(65), '📞'.repeat(65), '555\n123', 'tab\there', 'esc\u001b[0m', 'del\u007f', 'c1\u0085'])(
    'refuses the phone %j',
    (phone) => {
      expect(isPhoneText(phone)).toBe(false);
      expect(issues({ phone })).toEqual([{ field: 'data.phone', rule: PHONE_RULE }]);
    },
  );

  it.each(['Ema <ema@x.test>', 'ema@x.test', '<ema@x.test>', 'a@b', 'Ema Novak <ema.novak@x.test> ', 'odd"but ok"@x', ''])(
    'accepts the e-mail %j',
    (email) => {
      if (email) expect(isEmailText(email)).toBe(true);
      expect(issues({ email })).toEqual([]);
    },
  );

  it.each(['no-at', '@x', 'x@', ' @ ', 'Ema <no-at>', 'Ema <@x>', 'Ema <x@>', 'Ema <>', `${'a'.repeat(250)}@x.test`])(
    'refuses the e-mail %j',
    (email) => {
      expect(isEmailText(email)).toBe(false);
      expect(issues({ email })).toEqual([{ field: 'data.email', rule: EMAIL_RULE }]);
    },
  );

  it('names a wrong type as a type error only: one message per field', () => {
    expect(issues({ phone: 386, email: 5 })).toEqual([
      { field: 'data.phone', rule: 'must be a string' },
      { field: 'data.email', rule: 'must be a string' },
    ]);
  });
});

describe('MsNotSeconds', () => {
  class Window {
    @IsInt()
    @Min(0)
    @MsNotSeconds()
    from: number;
  }
  const lines = (from: unknown) => formatValidationErrors(validateSync(plainToInstance(Window, { from }), STRICT));

  it('accepts 0 and ms since the epoch', () => {
    for (const from of [0, 1e11, Date.UTC(2026, 10, 27), Number.MAX_SAFE_INTEGER]) expect(lines(from)).toEqual([]);
  });

  it('refuses a time that looks like seconds, naming the unit', () => {
    expect(lines(1_795_000_000)).toEqual(['data.from: must be ms since the epoch; 1795000000 looks like seconds']);
    expect(lines(1)).toEqual(['data.from: must be ms since the epoch; 1 looks like seconds']);
    expect(lines(1e11 - 1)).toEqual(['data.from: must be ms since the epoch; 99999999999 looks like seconds']);
  });

  it('leaves the type and the range to the field’s own rules (one message each)', () => {
    expect(lines('1795000000')).toEqual(['data.from: must be an integer number']);
    expect(lines(-5)).toEqual(['data.from: must not be less than 0']);
  });
});
