public class SubstringShrink {

    // s.substring(1) is one character shorter, so s.length() decreases.
    // expect: terminating
    public static String stripA(String s) {
        while (s.length() > 0 && s.charAt(0) == 'a') {
            s = s.substring(1);
        }
        return s;
    }

    // Recursion on s.substring(1): the length decreases, the empty string is the base case.
    // expect: terminating
    public static int countB(String s) {
        if (s.length() == 0) {
            return 0;
        }
        int here = s.charAt(0) == 'b' ? 1 : 0;
        return here + countB(s.substring(1));
    }

    // Counted by args.length, with terminating calls.
    // expect: terminating
    public static void main(String[] args) {
        for (int i = 0; i < args.length; i++) {
            countB(stripA(args[i]));
        }
    }
}
