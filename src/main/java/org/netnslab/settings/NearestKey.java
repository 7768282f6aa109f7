package org.netnslab.settings;

/** The known key (or command) a misspelt one most likely meant, by edit distance. Stateless. */
public final class NearestKey {
    private NearestKey() {}

    /**
     * @param key a key path not known
     * @param known the known key paths
     * @return the known path nearest {@code key} by edit distance, when within a quarter of its length (at least 2
     *     edits); else null
     */
    public static String of(String key, java.util.List<String> known) {
        String best = null;
        int bestDistance = Math.max(2, key.length() / 4) + 1;
        for (String k : known) {
            int d = editDistance(key, k);
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best;
    }

    /**
     * @param a a word
     * @param b another
     * @return Levenshtein's distance: the fewest one-character insertions, deletions and changes from a to b
     */
    public static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int change = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(change, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
