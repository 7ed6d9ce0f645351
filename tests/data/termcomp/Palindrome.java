public class Palindrome {

    // j - i decreases by 2 while i < j.
    // expect: terminating
    public static boolean isPalindrome(String s) {
        int i = 0;
        int j = s.length() - 1;
        while (i < j) {
            if (s.charAt(i) != s.charAt(j)) {
                return false;
            }
            i++;
            j--;
        }
        return true;
    }

    // Counted by args.length.
    // expect: terminating
    public static void main(String[] args) {
        int count = 0;
        for (int i = 0; i < args.length; i++) {
            if (isPalindrome(args[i])) {
                count++;
            }
        }
    }
}
