import { describe, expect, it } from 'vitest';
import { NetworkError, ProtocolError, ServerError } from '../../src/api/errors';
import { Faults, parseFaults } from '../../src/sandbox/faults';
import { books, sandbox } from '../helpers/sandbox';

describe('fault spec', () => {
  it('parses every fault and refuses nonsense with a clear message', () => {
    expect(
      parseFaults(
        'latency=5-9,error500=0.1,error429=0.2,resetBefore=0.3,resetAfter=0.4,malformed=0.5,seed=7',
      ),
    ).toEqual({
      latencyMin: 5,
      latencyMax: 9,
      error500: 0.1,
      error429: 0.2,
      resetBefore: 0.3,
      resetAfter: 0.4,
      malformed: 0.5,
      seed: 7,
    });
    expect(() => parseFaults('error500=2')).toThrow(/probability/);
    expect(() => parseFaults('explode=1')).toThrow(/unknown fault/);
    expect(() => parseFaults('latency=9-5')).toThrow(/MIN <= MAX/);
  });

  it('is deterministic for a seed', () => {
    const draws = (seed: number) => {
      const f = new Faults(parseFaults(`error500=0.3,resetAfter=0.3,latency=0-50,seed=${seed}`));
      return Array.from({ length: 50 }, () => f.draw(true));
    };
    expect(draws(3)).toEqual(draws(3));
    expect(draws(3)).not.toEqual(draws(4));
  });
});

describe('faults over HTTP', () => {
  it('resetAfter: the charge is applied once and the reply is lost', async () => {
    const { sb, client } = await sandbox();
    sb.faults.set('resetAfter=1');
    const line = (await client.listLines({ type: 'premium' }).catch(() => null)) ?? null;
    expect(line).not.toBeNull(); // reads are not reset
    const e = await client.extendLine({ id: line!.lines[0]!.id, duration: 1 }).catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.outcome).toBe('unknown');
    expect(books(sb).ledger).toHaveLength(1);
  });

  it('resetBefore: nothing is applied', async () => {
    const { sb, client } = await sandbox();
    sb.faults.set('resetBefore=1');
    const e = await client.createLine({ duration: 1 }).catch((x) => x);
    expect(e.outcome).toBe('unknown');
    expect(books(sb).ledger).toHaveLength(0);
    expect(books(sb).balance).toBe(1000);
  });

  it('error500: a server_error with a requestId, nothing applied', async () => {
    const { sb, client } = await sandbox();
    sb.faults.set('error500=1');
    const e = await client.createLine({ duration: 1 }).catch((x) => x);
    expect(e).toBeInstanceOf(ServerError);
    expect(e.requestId).toBeTruthy();
    expect(books(sb).balance).toBe(1000);
  });

  it('malformed: applied, then a 2xx body the client cannot read', async () => {
    const { sb, client } = await sandbox();
    sb.faults.set('malformed=1');
    const e = await client.createLine({ duration: 1 }).catch((x) => x);
    expect(e).toBeInstanceOf(ProtocolError);
    expect(e.outcome).toBe('unknown');
    expect(books(sb).ledger).toHaveLength(1);
  });

  it('latency delays answers', async () => {
    const { sb, client } = await sandbox();
    sb.faults.set('latency=150');
    const t = Date.now();
    await client.me();
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
  });
});
