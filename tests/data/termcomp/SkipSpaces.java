public class SkipSpaces {

    // s.length() - i decreases.
    // expect: terminating
    public static int firstNonSpace(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    // i only grows, by at least one per outer iteration (the inner loops share i);
    // s.length() - i bounds all three loops.
    // expect: terminating
    public static int words(String s) {
        int n = 0;
        int i = 0;
        while (i < s.length()) {
            while (i < s.length() && s.charAt(i) == ' ') {
                i++;
            }
            if (i < s.length()) {
                n++;
            }
            while (i < s.length() && s.charAt(i) != ' ') {
                i++;
            }
        }
        return n;
    }

    // Counted by args.length.
    // expect: terminating
    public static void main(String[] args) {
        for (int i = 0; i < args.length; i++) {
            firstNonSpace(args[i]);
            words(args[i]);
        }
    }
}
