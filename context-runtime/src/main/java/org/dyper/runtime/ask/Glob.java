package org.dyper.runtime.ask;

/** Thread-name patterns: {@code *} matches any run of characters, everything else itself. No allocation. */
final class Glob {
    private Glob() {
    }

    static boolean matches(String pattern, String s) {
        return matches(pattern, 0, s, 0);
    }

    private static boolean matches(String p, int i, String s, int j) {
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '*') {
                for (int k = j; k <= s.length(); k++) {
                    if (matches(p, i + 1, s, k)) {
                        return true;
                    }
                }
                return false;
            }
            if (j >= s.length() || s.charAt(j) != c) {
                return false;
            }
            i++;
            j++;
        }
        return j == s.length();
    }
}
