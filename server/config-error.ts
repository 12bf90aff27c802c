// A mistake in the configuration an operator can fix: an option, a config file, a certificate or
// key file that is missing or unreadable. The CLI prints the message and exits 2 (never 1, which
// means the server itself failed).
export class ConfigError extends Error {
  constructor(message: string, readonly showUsage = false) {
    super(message);
    this.name = 'ConfigError';
  }
}
