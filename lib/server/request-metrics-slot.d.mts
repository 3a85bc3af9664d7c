export function registerRequestObserver(observe: (method: string, url: string, status: number, seconds: number) => void): void;
export function reportRequest(method: string, url: string, status: number, seconds: number): void;
export function registerRequestTracer(trace: <T>(name: string, work: () => Promise<T>) => Promise<T>): void;
export function traceRequest<T>(name: string, work: () => Promise<T>): Promise<T>;
