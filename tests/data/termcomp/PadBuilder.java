public class PadBuilder {

    // n - sb.length() decreases: each iteration appends exactly one character.
    // expect: terminating
    public static String pad(String s, int n) {
        StringBuilder sb = new StringBuilder(s);
        while (sb.length() < n) {
            sb.append('.');
        }
        return sb.toString();
    }

    // One call to pad (an empty args raises ArrayIndexOutOfBoundsException).
    // expect: terminating
    public static void main(String[] args) {
        pad(args[0], 3 * args.length);
    }
}
