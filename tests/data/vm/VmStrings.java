/** Strings, StringBuilder, Integer conversions (compact strings, Latin-1 and UTF-16). */
public class VmStrings {
    // inputs: "hello"; ""; "h\u00e9llo"; "\u4e2d\u6587"
    static int length(String s) {
        return s.length();
    }

    // inputs: "hello", 1; "abc", 3; "abc", -1; "\u4e2d\u6587", 1
    static char charAt(String s, int i) {
        return s.charAt(i);
    }

    // inputs: "abc", "abc"; "abc", "abd"; "", ""; "a", null
    static boolean same(String a, String b) {
        return a.equals(b);
    }

    // inputs: "hello"; ""; "\u4e2d\u6587"
    static int hash(String s) {
        return s.hashCode();
    }

    // inputs: 5, 3; -17, 0; 2147483647, 2; -2147483648, 1
    static String build(int a, int b) {
        StringBuilder sb = new StringBuilder();
        sb.append("a=").append(a).append(", b=").append(b);
        sb.append(' ').append(a > b);
        return sb.toString();
    }

    // inputs: "hello"; ""; "ab\u00e9"
    static String reverse(String s) {
        return new StringBuilder(s).reverse().toString();
    }

    // inputs: "hello world", "o"; "hello", "z"; "aaa", "aa"
    static int indexOf(String s, String t) {
        return s.indexOf(t) * 100 + s.lastIndexOf(t);
    }

    // inputs: "hello", 1, 3; "hello", 0, 5; "hello", 3, 1
    static String substring(String s, int from, int to) {
        return s.substring(from, to);
    }

    // inputs: 0; 42; -7; 2147483647; -2147483648
    static String itoa(int n) {
        StringBuilder sb = new StringBuilder(Integer.toString(n));
        sb.append('|').append(String.valueOf(n * 3L)).append('|').append(Integer.toHexString(n));
        return sb.toString();
    }

    // inputs: "123"; "-45"; "abc"; ""; "2147483648"
    static int atoi(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    // inputs: "apple", "banana"; "b", "a"; "same", "same"
    static int compare(String a, String b) {
        return a.compareTo(b);
    }

    // inputs: "Hello World"; "abc"
    static String upper(String s) {
        return s.toUpperCase().concat(s.toLowerCase());
    }

    // inputs: 4; 0
    static String repeat(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i).append(',');
        }
        return sb.toString();
    }

    // inputs: "a,b,,c"; ""
    static int countCommas(String s) {
        int n = 0;
        for (char c : s.toCharArray()) {
            if (c == ',') {
                n++;
            }
        }
        return n;
    }

    // inputs: "x"
    static boolean interned(String s) {
        String t = new StringBuilder().append(s).toString();
        return t.intern() == "x";
    }

    // String concatenation compiles to invokedynamic, which the VM refuses.
    // inputs: "a", 1
    static String concatenated(String s, int n) {
        return s + n;
    }
}
