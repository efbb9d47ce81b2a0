/** The current time; injected so tests move time instead of sleeping (token expiry, throttles, reset links). */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
