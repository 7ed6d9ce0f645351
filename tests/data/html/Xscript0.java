/**
 * A class whose names the HTML report test replaces, in the compiled class, by names the JVM
 * accepts and Java does not: the class becomes `<script>` and the method a name with quotes, an
 * attribute and an entity (see `HOSTILE` in tests/html_report.rs).
 */
public class Xscript0 {
    static int mOnloadAlert0000(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    static String label(int n) {
        return "<img src=x onerror=alert(1)>" + n;
    }
}
