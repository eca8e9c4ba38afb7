import { describe, expect, it } from 'vitest';
import { openBrowser, openerCommand } from '../../src/cli-support/open-browser.js';

describe('openBrowser / openerCommand (issue #31 item 5)', () => {
  const url = 'https://auth.example.com/authorize?a=1&b=%PATH%|calc^&c="x"';

  it('on Windows: rundll32 by its full path, the URL one argument, no cmd to parse |, ^, % or &', () => {
    expect(openerCommand(url, { SystemRoot: 'C:\\Windows' }, 'win32')).toEqual(['C:\\Windows\\System32\\rundll32.exe', ['url.dll,FileProtocolHandler', url]]);
  });

  it('elsewhere: $BROWSER, open, xdg-open, the URL one argument', () => {
    expect(openerCommand(url, { BROWSER: 'w3m:lynx' }, 'linux')).toEqual(['w3m', [url]]);
    expect(openerCommand(url, {}, 'darwin')).toEqual(['open', [url]]);
    expect(openerCommand(url, {}, 'linux')).toEqual(['xdg-open', [url]]);
  });

  it('refuses anything but an http(s) URL before any opener runs', async () => {
    for (const target of ['file:///etc/passwd', 'vscode://x', 'javascript:alert(1)', '--help']) {
      await expect(openBrowser(target, { BROWSER: '/nonexistent/opener' })).rejects.toThrow('toolrun opens only http(s) URLs in a browser');
    }
  });
});
