import { ArrayMaxSize, IsArray, IsString, Length } from 'class-validator';
import { Optional } from '../validation/validation';
import { NamedTarget, namedTargets } from '../validation/named-targets';

/** The most ids one `ids` list may name. */
export const MAX_TARGET_IDS = 1000;

/**
 * `id | ids`, exactly one: the targets of an action that edits or deletes rows of one kind by id
 * (deletezone, deletealert). A subclass names the kind in `noun` ("zone") for the error of an empty
 * list; the validation pipe calls {@link completeValidation} once the field rules pass.
 */
export abstract class IdOrIdsDto {
  @Optional()
  @IsString()
  @Length(1, 64)
  id?: string;

  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_TARGET_IDS)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  ids?: string[];

  /** The rows named, each with the field that names it (not a wire field: set by {@link completeValidation}). */
  declare targets: NamedTarget[];

  /** What one id names, singular ("zone", "alert rule"): a getter, so never a property of the instance. */
  protected abstract get noun(): string;

  /** @throws DomainError invalid naming `id` or `ids` when neither or both are sent, or `ids` is empty */
  completeValidation(prefix: string): void {
    this.targets = namedTargets(prefix, this.id, this.ids, ['id', 'ids'], this.noun);
  }
}
