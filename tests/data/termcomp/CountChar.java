public class CountChar {

    // s.length() - i decreases; a String never changes its length.
    // expect: terminating
    public static int count(String s, char c) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == c) {
                n++;
            }
        }
        return n;
    }

    // One call to count per argument, counted by args.length.
    // expect: terminating
    public static void main(String[] args) {
        int total = 0;
        for (int i = 0; i < args.length; i++) {
            total = total + count(args[i], 'a');
        }
    }
}
