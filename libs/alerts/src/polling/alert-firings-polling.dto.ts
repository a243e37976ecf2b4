import { ConnectorPollingQueryDto } from '@app/core';

/** `GET /v1/alert-firings` query string. */
export class AlertFiringsQueryDto extends ConnectorPollingQueryDto {}
