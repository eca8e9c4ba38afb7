import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatConformJunit } from '../../src/output/format-conform-junit.js';
import { expectValidJunit as expectValid, JUNIT_SCHEMAS, XMLLINT } from '../helpers/junit-schemas.js';
import { ROOT } from '../helpers/run-toolrun.js';
import { HOSTILE, check, mixedReport, report } from './conform-report-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'toolrun-junit-'));
const STARTED = new Date('2026-03-01T10:20:30.456Z');

function save(xml: string, name: string): string {
  const file = join(dir, name);
  writeFileSync(file, xml);
  return file;
}

function xpath(file: string, expression: string): string {
  // xmllint ends its answer with a newline of its own.
  return execFileSync('xmllint', ['--xpath', expression, file], { encoding: 'utf8' }).replace(/\n$/, '');
}

describe('formatConformJunit: mcp conform --junit FILE', () => {
  it('writes one suite with one testcase per check, counts and times, valid against both JUnit schemas', () => {
    const xml = formatConformJunit(mixedReport(), { startedAt: STARTED, hostname: 'ci-runner' });
    const file = save(xml, 'mixed.xml');
    expectValid(file);
    expect(xml).toContain(
      '<testsuite name="toolrun@1 everything" package="mcp.conform.toolrun@1" id="0" hostname="ci-runner" timestamp="2026-03-01T10:20:30" tests="4" failures="1" errors="0" skipped="1" time="1.412">',
    );
    expect(xml).toContain('<testcase classname="mcp.conform.lifecycle" name="lifecycle.initialize: The handshake succeeds" time="0.003"/>');
    expect(xml).toContain('<failure message="tool &quot;broken&quot; has no inputSchema" type="server/tools#tool">');
    expect(xml).toContain('<skipped message="no tool was called (use --call or --call-all)"/>');
    expect(xml).toContain('<property name="warning.ping" value="ping answered in 1800 ms"/>');
    if (!XMLLINT) return;
    expect(xpath(file, 'string(//testcase[@name="tools.input-schema: Every tool has an inputSchema"]/failure)')).toBe(
      [
        'tool "broken" has no inputSchema',
        'spec: server/tools#tool',
        '- result.tools[1] has no inputSchema',
        '  at result.tools[1].inputSchema',
        '  stdout line 7',
        `  received: ${JSON.stringify(mixedReport().checks[1]!.evidence[0]!.frame)}`,
      ].join('\n'),
    );
    // A warning passes (no failure element) and is told in the suite's output.
    expect(xpath(file, 'count(//testcase[@name="ping: ping answers"]/*)')).toBe('0');
    expect(xpath(file, 'string(//testsuite/system-out)')).toBe('warning ping: ping answered in 1800 ms\n- slow answer');
  });

  it('keeps the file valid whatever bytes a server sent: markup, ]]>, entities, NUL, ESC, CR, C1, lone surrogates', () => {
    const hostile = report(
      [
        check({ id: `tools.${HOSTILE}`, title: HOSTILE, verdict: 'fail', section: HOSTILE, message: HOSTILE, evidence: [{ detail: HOSTILE, path: HOSTILE, frame: { name: HOSTILE } }] }),
        check({ id: 'prompts.get', verdict: 'skip', message: HOSTILE }),
        check({ id: 'ping', verdict: 'warn', message: HOSTILE, evidence: [{ detail: HOSTILE }] }),
      ],
      { server: HOSTILE, calls: [{ tool: HOSTILE, arguments: { a: HOSTILE }, generated: true }] },
    );
    const xml = formatConformJunit(hostile, { startedAt: STARTED });
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    expect(xml).not.toContain(']]>');
    const file = save(xml, 'hostile.xml');
    expectValid(file);
    if (!XMLLINT) return;
    // What a reader of the report sees: the server's text, with the bytes XML cannot carry spelled out.
    const spelled = 'evil<tool>]]>&amp;"\'\\x00\\x1b[2J\\x1b]0;title\\x07\\x0d\nforged\\u009b\\ud800\\uffff end';
    expect(xpath(file, 'string(//skipped/@message)')).toBe(spelled);
    expect(xpath(file, 'string(//property[@name="warning.ping"]/@value)')).toBe(spelled);
    expect(xpath(file, 'count(//testcase)')).toBe('3');
  });

  it('turns an unreachable server into one errored testcase with the reason', () => {
    const xml = formatConformJunit(report([], { unreachable: 'spawn nosuch ENOENT', protocolVersion: undefined, durationMs: 20 }), { startedAt: STARTED });
    const file = save(xml, 'unreachable.xml');
    expectValid(file);
    expect(xml).toContain('tests="1" failures="0" errors="1" skipped="0"');
    expect(xml).toContain('<testcase classname="mcp.conform.connect" name="connect: everything can be reached" time="0.020">');
    expect(xml).toContain('<error message="spawn nosuch ENOENT" type="unreachable">spawn nosuch ENOENT</error>');
  });

  it('masks secrets in what it writes (a server URL with a token, a generated call)', () => {
    const xml = formatConformJunit(report([check({ id: 'ping', verdict: 'pass' })], { server: 'https://mcp.example.com/mcp?api_key=SECRET123' }), { startedAt: STARTED });
    expect(xml).not.toContain('SECRET123');
    expect(xml).toContain('api_key=***');
  });
});

describe('junit-common.xsd, the shape every CI tool reads', () => {
  it('refuses what the Ant schema refuses: a testcase with a failure and its own system-out, a zoned timestamp', (context) => {
    // Everything this test checks needs xmllint: without it, a skip (said why), not a pass.
    if (!XMLLINT) {
      console.log('[skip] xmllint is not installed (Debian: libxml2-utils)');
      return context.skip();
    }
    const schema = join(ROOT, 'test/fixtures/junit/junit-common.xsd');
    const suite = (timestamp: string, testcase: string) =>
      `<testsuites><testsuite name="s" package="p" id="0" hostname="h" timestamp="${timestamp}" tests="1" failures="1" errors="0" time="0"><properties/>${testcase}<system-out/><system-err/></testsuite></testsuites>`;
    const good = suite('2026-03-01T10:20:30', '<testcase name="a" classname="c" time="0"><failure type="t" message="m">x</failure></testcase>');
    const twoChildren = suite('2026-03-01T10:20:30', '<testcase name="a" classname="c" time="0"><failure type="t">x</failure><system-out>y</system-out></testcase>');
    const zoned = suite('2026-03-01T10:20:30Z', '<testcase name="a" classname="c" time="0"/>');
    const status = (xml: string, name: string) => spawnSync('xmllint', ['--noout', '--schema', schema, save(xml, name)], { encoding: 'utf8' }).status;
    expect(status(good, 'good.xml')).toBe(0);
    expect(status(twoChildren, 'two.xml')).not.toBe(0);
    expect(status(zoned, 'zoned.xml')).not.toBe(0);
  });
});

describe('the JUnit schemas in test/fixtures/junit', () => {
  it('are all there, the third-party ones unchanged from the commits test/fixtures/junit/README.md names', () => {
    // sha256 of the files at jenkinsci/xunit-plugin@8c515de2 and windyroad/JUnit-Schema@cfa434d4.
    const pinned: Record<string, string> = {
      'jenkins-junit-10.xsd': 'a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6',
      'windyroad-JUnit.xsd': '147ff89ef34a82f9a1b2951e7cad251b98c9a7a48a0e0c8e44937141791f57a8',
    };
    expect(JUNIT_SCHEMAS.filter((schema) => !existsSync(schema))).toEqual([]);
    for (const [name, digest] of Object.entries(pinned)) {
      expect(
        createHash('sha256')
          .update(readFileSync(join(ROOT, 'test/fixtures/junit', name)))
          .digest('hex'),
        name,
      ).toBe(digest);
    }
  });
});
