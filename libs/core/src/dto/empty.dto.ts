/** `data` of actions that take no fields: must be `{}` (any key is refused as unknown). */
export class EmptyDto {}
