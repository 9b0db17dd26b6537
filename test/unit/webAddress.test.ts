import { describe, expect, it } from 'vitest'
import { isLoopbackHost, openableUrl, unsafeWebUrl } from '../../shared/contract'
import { openSystemBrowser } from '../../cli/openBrowser'

describe('the one rule for URLs Parallax opens or sends a secret to', () => {
  it('opens https anywhere and http only on this machine, handing over the URL as parsed', () => {
    expect(openableUrl('https://auth.example/authorize?a=1&b=2')).toEqual({ href: 'https://auth.example/authorize?a=1&b=2' })
    expect(openableUrl('HTTPS://Auth.Example/x')).toEqual({ href: 'https://auth.example/x' })
    for (const url of ['http://127.0.0.1:8080/cb', 'http://localhost/x', 'http://[::1]:3000/', 'http://127.9.9.9/'])
      expect(unsafeWebUrl(url), url).toBeUndefined()
  })

  it('refuses every other scheme, plain http beyond this machine, a user before the host, and what no URL carries raw', () => {
    const refused: [string, RegExp][] = [
      ['file:///etc/passwd', /scheme is file:/],
      ['smb://attacker.example/share', /scheme is smb:/],
      ['javascript:alert(1)', /scheme is javascript:/],
      ['ms-settings:', /scheme is ms-settings:/],
      ['http://attacker.example/authorize', /plain http: to attacker\.example.*in clear/],
      ['http://127.0.0.1.attacker.example/', /plain http:/],
      ['https://accounts.example@attacker.example/', /names a user before its host/],
      ['https://auth.example/authorize?x="&calc.exe&"', /holds """/],
      ['https://auth.example/a`id`', /holds "`"/],
      ['https://auth.example/a|b', /holds "\|"/],
      ['https://auth.example/a^b', /holds "\^"/],
      ['a:$(cmd.exe /c whoami)', /holds a space/],
      ['https://auth.example/\nx', /control character \(U\+000A\)/],
      ['not a url', /holds a space/],
      ['nourl', /is not a URL/],
    ]
    for (const [url, why] of refused) {
      const checked = openableUrl(url)
      expect('refused' in checked && checked.refused, url).toMatch(why)
    }
  })

  it('knows loopback hosts by name and address only', () => {
    expect(['localhost', '127.0.0.1', '[::1]', '::1', 'LOCALHOST'].every(isLoopbackHost)).toBe(true)
    expect(['localhost.attacker.example', '128.0.0.1', '0.0.0.0', 'example.com'].some(isLoopbackHost)).toBe(false)
  })

  it('the CLI’s opener refuses before anything runs', async () => {
    await expect(openSystemBrowser('file:///etc/passwd')).rejects.toThrow(/not opened: its scheme is file:/)
    await expect(openSystemBrowser('https://x.example/"&calc')).rejects.toThrow(/not opened: it holds """/)
  })
})
