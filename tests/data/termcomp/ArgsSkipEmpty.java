public class ArgsSkipEmpty {

    // i only advances past non-empty arguments; an empty argument is never skipped.
    // Input: args = {""}.
    // expect: nonterminating
    public static void main(String[] args) {
        int total = 0;
        int i = 0;
        while (i < args.length) {
            int len = args[i].length();
            if (len > 0) {
                total = total + len;
                i++;
            }
        }
    }
}
