/**
 * The pipelined connections ask PostgreSQL for generic plans (`withGenericPlans`, connect.ts) without
 * losing what the operator's DATABASE_URL says: its credentials, its other parameters, its own `options`.
 */
import { withGenericPlans } from '../src/connect';

describe('withGenericPlans', () => {
  const SETTING = '-c plan_cache_mode=force_generic_plan';
  const optionsOf = (url: string) => new URL(url).searchParams.get('options');

  it('when the URL gives no options, then the setting is its options, and everything else is kept', () => {
    const { connectionString, options } = withGenericPlans('postgresql://app:p%40ss%2Fword@db.internal:6432/loanmatch?sslmode=require');
    const url = new URL(connectionString);
    expect([url.username, decodeURIComponent(url.password), url.hostname, url.port, url.pathname]).toEqual(['app', 'p@ss/word', 'db.internal', '6432', '/loanmatch']);
    expect(url.searchParams.get('sslmode')).toBe('require');
    expect(optionsOf(connectionString)).toBe(SETTING);
    expect(options).toBeUndefined();
  });

  it('when the URL gives options of its own, then the setting follows them', () => {
    const { connectionString } = withGenericPlans('postgresql://app@db:5432/loanmatch?options=-c%20search_path%3Dlm');
    expect(optionsOf(connectionString)).toBe(`-c search_path=lm ${SETTING}`);
  });

  it('when the URL is one URL cannot read (no host), then its text is kept and the setting goes as pg’s options', () => {
    expect(withGenericPlans('postgresql://app@/loanmatch?host=/var/run/postgresql')).toEqual({
      connectionString: 'postgresql://app@/loanmatch?host=/var/run/postgresql',
      options: SETTING,
    });
  });
});
