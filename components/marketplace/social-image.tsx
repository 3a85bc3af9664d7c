import type { ReactNode } from 'react';

// The frame of every Open Graph image. Next's ImageResponse takes inline styles only, and every element with more than
// one child needs `display: flex`.
export function SocialImageFrame({ children, facts }: { children: ReactNode; facts: string }) {
  return (
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: 72,
        background: '#f8fafc',
        color: '#0f172a',
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 20, fontSize: 34, fontWeight: 700 }}>
        <div
          style={{
            display: 'flex',
            width: 64,
            height: 64,
            borderRadius: 14,
            background: '#1f57c9',
            color: 'white',
            alignItems: 'center',
            justifyContent: 'center',
          }}
        >
          A
        </div>
        Almanac
      </div>
      {children}
      <div style={{ display: 'flex', fontSize: 30, color: '#334155' }}>{facts}</div>
    </div>
  );
}
