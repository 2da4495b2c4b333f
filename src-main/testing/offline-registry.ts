/**
 * The ACP registry address test hosts get: loopback, where nothing listens, so a refresh fails at once
 * and tests never reach the registry's published address. A test that serves a registry names its own.
 */
export const UNREACHABLE_REGISTRY = 'http://127.0.0.1:9/registry.json';
