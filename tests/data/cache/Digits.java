// Methods whose calls into the JDK go to library summaries, which `tests/summary_cache.rs` has a
// cache keep between runs.
public class Digits {
    public static int width(int value) {
        return Integer.toString(value).length();
    }

    public static int spread(int a, int b) {
        return Math.max(a, b) - Math.min(a, b) + Math.abs(a);
    }

    public static String twice(String text) {
        return text.concat(text);
    }

    public static int total(int[] values) {
        int sum = 0;
        for (int value : values) {
            sum += Integer.toString(value).length();
        }
        return sum;
    }
}
