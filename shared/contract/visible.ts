/**
 * Characters that change how text reads without showing themselves: controls, bidirectional overrides
 * and isolates (a name can be displayed backwards), zero-width and other invisible characters (two
 * different names can look the same), tag characters. Agent-supplied names show each one as
 * `⟨U+XXXX⟩`, so a tool cannot pass for another.
 */
// The class lists invisible and combining characters on purpose: they are what it finds.
const HIDDEN =
  // eslint-disable-next-line no-misleading-character-class
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]/gu
// eslint-disable-next-line no-misleading-character-class -- as above
const HIDDEN_WITH_LINES = new RegExp(`${HIDDEN.source}|[\\n\\t]`, 'gu')

function codePoint(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`
}

/** A name (tool, prompt, resource, skill, server, agent): every hidden character, line breaks and tabs included, made visible. */
export function visibleName(name: string): string {
  return name.replace(HIDDEN_WITH_LINES, codePoint)
}

/** Longer text (descriptions, instructions): hidden characters made visible; line breaks and tabs kept. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, codePoint)
}

/** Whether a name holds characters that `visibleName` reveals: worth a warning beside it. */
export function hasHiddenCharacters(name: string): boolean {
  return visibleName(name) !== name
}
