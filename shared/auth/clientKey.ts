import { createPrivateKey } from 'node:crypto'
import { readFile } from 'node:fs/promises'

/** A client's private key for `private_key_jwt` (RFC 7523): its PEM text and the JWS algorithm it signs with. */
export interface ClientKey {
  pem: string
  alg: string
}

const CURVES: Record<string, string> = {
  prime256v1: 'ES256',
  'P-256': 'ES256',
  secp384r1: 'ES384',
  'P-384': 'ES384',
  secp521r1: 'ES512',
  'P-521': 'ES512',
}

/**
 * Reads a PEM private key (PKCS #8) and picks its algorithm: ES256/384/512 by curve, RS256 for RSA,
 * EdDSA for Ed25519; among those the authorization server lists, when it lists any.
 */
export async function readClientKey(file: string, supported?: string[]): Promise<ClientKey> {
  const pem = await readFile(file, 'utf8').catch((error: Error) => {
    throw new Error(`cannot read the client key ${file}: ${error.message}`)
  })
  let key
  try {
    key = createPrivateKey(pem)
  } catch (error) {
    throw new Error(`${file} is not a PEM private key: ${(error as Error).message}`, { cause: error })
  }
  const type = key.asymmetricKeyType
  const details = key.asymmetricKeyDetails as { namedCurve?: string } | undefined
  const candidates =
    type === 'ec'
      ? [CURVES[details?.namedCurve ?? '']].filter(Boolean)
      : type === 'rsa'
        ? ['RS256', 'PS256']
        : type === 'ed25519'
          ? ['EdDSA']
          : []
  if (!candidates.length)
    throw new Error(`${file}: a ${type ?? 'unknown'} key cannot sign a client assertion (use an EC, RSA or Ed25519 key)`)
  const alg = supported?.length ? candidates.find((c) => supported.includes(c)) : candidates[0]
  if (!alg)
    throw new Error(
      `${file}: the authorization server signs only with ${supported!.join(', ')}, and this ${type} key signs with ${candidates.join(' or ')}`,
    )
  // PKCS #8 is what the signer imports; a key in another PEM form is converted.
  const pkcs8 = pem.includes('BEGIN PRIVATE KEY') ? pem : key.export({ type: 'pkcs8', format: 'pem' }).toString()
  return { pem: pkcs8, alg }
}
