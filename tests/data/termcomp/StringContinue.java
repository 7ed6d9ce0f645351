public class StringContinue {

    // continue skips the increment, so i stays at the first 'a'.
    // Input: s = "a".
    // expect: nonterminating
    public static int countOthers(String s) {
        int n = 0;
        int i = 0;
        while (i < s.length()) {
            if (s.charAt(i) == 'a') {
                continue;
            }
            n++;
            i++;
        }
        return n;
    }

    // countOthers loops on any argument that contains an 'a'.
    // Input: args = {"a"}.
    // expect: nonterminating
    public static void main(String[] args) {
        for (int i = 0; i < args.length; i++) {
            countOthers(args[i]);
        }
    }
}
