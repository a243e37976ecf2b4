// The transforms live in core (`libs/core/src/validation/dto-markers.ts`) so the libs' DTOs can use them.
export { QueryBool, QueryInt } from '@app/core';
