public class CharsInArgs {

    // Outer loop counted by args.length, inner by args[i].length().
    // expect: terminating
    public static void main(String[] args) {
        int digits = 0;
        for (int i = 0; i < args.length; i++) {
            String s = args[i];
            for (int j = 0; j < s.length(); j++) {
                char c = s.charAt(j);
                if (c >= '0' && c <= '9') {
                    digits++;
                }
            }
        }
    }
}
