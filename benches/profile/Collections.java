import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Profiler benchmark workload: allocation-heavy code over the JDK's collections (boxing, hashing,
 * iterators, sorted maps, a breadth-first search over a generated graph, string building).
 */
public class Collections {
    static long maps(int n) {
        Map<Integer, List<Integer>> groups = new HashMap<>();
        for (int i = 0; i < n; i++) {
            groups.computeIfAbsent(i % 997, k -> new ArrayList<>()).add(i);
        }
        TreeMap<Integer, Integer> sizes = new TreeMap<>();
        for (Map.Entry<Integer, List<Integer>> entry : groups.entrySet()) {
            sizes.merge(entry.getValue().size(), 1, Integer::sum);
        }
        long total = 0;
        for (List<Integer> group : groups.values()) {
            for (Integer value : group) {
                total += value;
            }
        }
        return total + sizes.firstKey();
    }

    static int bfs(int nodes) {
        List<List<Integer>> edges = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            List<Integer> out = new ArrayList<>();
            out.add((i * 7 + 1) % nodes);
            out.add((i * 13 + 5) % nodes);
            out.add((i + 1) % nodes);
            edges.add(out);
        }
        int[] distance = new int[nodes];
        java.util.Arrays.fill(distance, -1);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(0);
        distance[0] = 0;
        int farthest = 0;
        while (!queue.isEmpty()) {
            int node = queue.poll();
            for (int next : edges.get(node)) {
                if (distance[next] < 0) {
                    distance[next] = distance[node] + 1;
                    farthest = Math.max(farthest, distance[next]);
                    queue.add(next);
                }
            }
        }
        return farthest;
    }

    static int strings(int n) {
        StringBuilder text = new StringBuilder();
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            String word = "w" + (i * 31 % 5_003);
            counts.merge(word, 1, Integer::sum);
            if (text.length() < 100_000) {
                text.append(word).append(' ');
            }
        }
        return counts.size() + text.length();
    }

    public static void main(String[] args) {
        int scale = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        long result = 0;
        for (int r = 0; r < scale; r++) {
            result += maps(600_000) + bfs(400_000) + strings(600_000);
        }
        System.out.println(result);
    }
}
