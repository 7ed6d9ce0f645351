public class ArgsSum {

    // a.length is fixed; a.length - i decreases.
    // expect: terminating
    public static int longest(String[] a) {
        int best = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i].length() > best) {
                best = a[i].length();
            }
        }
        return best;
    }

    // args.length - i decreases, then one call to longest.
    // expect: terminating
    public static void main(String[] args) {
        int total = 0;
        for (int i = 0; i < args.length; i++) {
            total = total + args[i].length();
        }
        longest(args);
    }
}
