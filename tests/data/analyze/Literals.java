/**
 * String literals: a literal's size is 1 plus its byte array's length, which is its UTF-16 length
 * in Latin-1 and twice that in UTF-16 (compact strings off, or a character beyond Latin-1), so a
 * loop over a literal's `length()` runs a number of times known before it starts.
 */
public class Literals {
    // expect: O(1)
    static int overLiteral() {
        String s = "abcdef";
        int c = 0;
        for (int i = 0; i < s.length(); i++) {
            c++;
        }
        return c;
    }

    // Either literal: the loop runs at most the longer one's length.
    // expect: O(1)
    static int eitherLiteral(int k) {
        String s = k > 0 ? "\u03b1\u03b2\u03b3 and more" : "ab";
        int c = 0;
        for (int i = 0; i < s.length(); i++) {
            c += i;
        }
        return c;
    }

    // A loop over a literal inside a loop over the input: the inner loop's count is a constant.
    // expect: O(n)
    static int repeatLiteral(int n) {
        String s = "ab";
        int c = 0;
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < s.length(); i++) {
                c++;
            }
        }
        return c;
    }
}
