export function registerRequestObserver(observe: (method: string, url: string, status: number, seconds: number) => void): void;
export function reportRequest(method: string, url: string, status: number, seconds: number): void;
