// The marker lives in core (`libs/core/src/validation/dto-markers.ts`) so the libs' DTOs can use it.
export { DOC_ENTRIES, EntriesOf } from '@app/core';
export type { DocEntries } from '@app/core';
