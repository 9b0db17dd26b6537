import { useEffect, useState } from 'react'
import { DEFAULT_PROFILE, type ClientProfile, type SavedTarget } from '../../../../../shared/contract'
import { command } from '../../../store/store'
import './serverRequests.css'

/** The client profiles to choose from (presets and the user's own), fetched once per picker. */
export function useProfiles(): (ClientProfile & { preset: boolean })[] {
  const [profiles, setProfiles] = useState<(ClientProfile & { preset: boolean })[]>([])
  useEffect(() => {
    let live = true
    void command((api) => api.invoke('profiles.list', {})).then((list) => live && list && setProfiles(list))
    return () => {
      live = false
    }
  }, [])
  return profiles
}

/** Which client profile the next connection is made under: the target's own unless the user picks another, this time only. */
export function ProfilePicker({
  target,
  value,
  onChange,
}: {
  target: SavedTarget
  value: string | undefined
  onChange: (profile: string | undefined) => void
}) {
  const profiles = useProfiles()
  const own = target.profile ?? DEFAULT_PROFILE
  return (
    <label
      className="profile-picker"
      title="The client profile to connect under: what Parallax offers the server (capabilities, client info, version)"
    >
      <span className="muted">as</span>
      <select
        className="input"
        aria-label="Client profile"
        value={value ?? own}
        onChange={(e) => onChange(e.target.value === own ? undefined : e.target.value)}
      >
        {(profiles.length ? profiles : [{ name: own, description: undefined }]).map((p) => (
          <option key={p.name} value={p.name} title={p.description}>
            {p.name}
            {p.name === own ? ' (the target’s)' : ''}
          </option>
        ))}
      </select>
    </label>
  )
}
