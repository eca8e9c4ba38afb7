/**
 * The largest host file `mcp tap --wrap` edits. Editing parses the file several times and checks
 * that nothing but the entry changed, which costs about 150× the file in memory: an 8 MB file took
 * 1.3 GB (issue #31). A host's config is a few KB; ~/.claude.json, which keeps history, can reach a
 * few MB. Larger: refused with the size, to be edited by hand.
 */
export const WRAP_LIMIT_BYTES = 4 << 20;
