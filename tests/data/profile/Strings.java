/** Fixture for tests/profile_exact.rs: HashMap lookups with equal but not identical String keys, whose StringLatin1.equals calls C2 would replace by its intrinsic. */
import java.util.HashMap;
import java.util.Map;

public class Strings {
    static final String[] KEYS = new String[100];
    static final String[] LOOKUPS = new String[100];
    static final Map<String, Integer> COUNTS = new HashMap<>();

    /** One merge per iteration, each finding its key through String.equals on a distinct but equal string. */
    static void work(int n) {
        for (int i = 0; i < n; i++) {
            COUNTS.merge(LOOKUPS[i % LOOKUPS.length], 1, Integer::sum);
        }
    }

    /** Links the method reference's call site and loads the classes before the measured run. */
    static void warmUp() {
        work(1000);
    }

    static void measured() {
        work(100_000);
    }

    public static void main(String[] args) {
        for (int i = 0; i < KEYS.length; i++) {
            KEYS[i] = "key-" + i;
            COUNTS.put(KEYS[i], 0);
            LOOKUPS[i] = new String(KEYS[i]);
        }
        warmUp();
        measured();
        System.out.println(COUNTS.get("key-7"));
    }
}
