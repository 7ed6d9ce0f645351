public class IndexOfEmpty {

    // s.indexOf("", from) returns s.length() for every from > s.length(), so with an
    // empty t idx never becomes negative and the loop never breaks.
    // Input: s = "abc", t = "".
    // expect: nonterminating
    public static int occurrences(String s, String t) {
        int count = 0;
        int from = 0;
        while (true) {
            int idx = s.indexOf(t, from);
            if (idx < 0) {
                break;
            }
            count++;
            from = idx + 1;
        }
        return count;
    }

    // occurrences loops when the second argument is empty.
    // Input: args = {"abc", ""}.
    // expect: nonterminating
    public static void main(String[] args) {
        occurrences(args[0], args[1]);
    }
}
