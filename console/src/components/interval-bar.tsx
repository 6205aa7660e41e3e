/**
 * A score with its 95% interval, drawn: a track for the whole range the score can take, the
 * interval as a bar on it and the value as a tick. The words beside it ("25% (11–47%)") say
 * the same to a screen reader, which skips the drawing.
 */
export function IntervalBar(props: { value: number; low: number; high: number; range: [number, number]; text: string }) {
  const [min, max] = props.range;
  const at = (score: number) => `${(Math.min(Math.max((score - min) / (max - min || 1), 0), 1) * 100).toFixed(1)}%`;
  return (
    <span className="interval">
      <span className="interval-track" aria-hidden="true" data-low={props.low} data-high={props.high}>
        <span className="interval-range" style={{ left: at(props.low), right: `calc(100% - ${at(props.high)})` }} />
        <span className="interval-value" style={{ left: at(props.value) }} />
      </span>
      <span className="interval-text">{props.text}</span>
    </span>
  );
}
