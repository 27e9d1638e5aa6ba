/**
 * A failure at an outside provider (a remote engine's model service). `visible` says whether its message was
 * written for visitors and may be shown as it is; otherwise it is logged and the visitor sees ENGINE_FAILED.
 */
export class ProviderFailure extends Error {
  constructor(
    message: string,
    readonly visible: boolean,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}
