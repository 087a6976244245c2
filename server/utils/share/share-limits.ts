/** Most links one owner keeps at once (revoked ones do not count: their snapshot is gone). */
export const MAX_SHARE_LINKS_PER_OWNER = 100

/** Revoked links kept per owner so their page can say "revoked"; older ones are forgotten (and then read 404). */
export const MAX_REVOKED_SHARE_LINKS_PER_OWNER = 100
