public class ReverseString {

    // i counts down from s.length() - 1 to 0; appending to the builder does not touch s.
    // expect: terminating
    public static String reverse(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = s.length() - 1; i >= 0; i--) {
            sb.append(s.charAt(i));
        }
        return sb.toString();
    }

    // Counted by args.length.
    // expect: terminating
    public static void main(String[] args) {
        for (int i = 0; i < args.length; i++) {
            reverse(args[i]);
        }
    }
}
