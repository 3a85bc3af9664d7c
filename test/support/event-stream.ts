/** The Server-Sent Events of a streamed answer (docs/api.md §10.4), each with the milliseconds since `started`. */
export async function readTimedEvents(response: Response, started: number): Promise<Array<{ event: string; data: any; ms: number }>> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: Array<{ event: string; data: any; ms: number }> = [];
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const frames = buffered.split('\n\n');
    buffered = frames.pop()!;
    for (const frame of frames.filter((f) => f.startsWith('event:'))) {
      const [eventLine, dataLine] = frame.split('\n');
      events.push({ event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)), ms: performance.now() - started });
    }
  }
  return events;
}
