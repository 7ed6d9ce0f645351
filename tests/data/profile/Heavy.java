/** A CPU-heavy program for measuring the profiler's overhead: an n-body simulation, sorting with a comparator, and hashing. */
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

public class Heavy {
    static final class Body {
        double x, y, z, vx, vy, vz, mass;

        Body(double x, double y, double z, double vx, double vy, double vz, double mass) {
            this.x = x; this.y = y; this.z = z; this.vx = vx; this.vy = vy; this.vz = vz; this.mass = mass;
        }
    }

    static void advance(Body[] bodies, double dt) {
        for (int i = 0; i < bodies.length; i++) {
            Body a = bodies[i];
            for (int j = i + 1; j < bodies.length; j++) {
                Body b = bodies[j];
                double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
                double d2 = dx * dx + dy * dy + dz * dz;
                double mag = dt / (d2 * Math.sqrt(d2));
                a.vx -= dx * b.mass * mag; a.vy -= dy * b.mass * mag; a.vz -= dz * b.mass * mag;
                b.vx += dx * a.mass * mag; b.vy += dy * a.mass * mag; b.vz += dz * a.mass * mag;
            }
        }
        for (Body body : bodies) {
            body.x += dt * body.vx; body.y += dt * body.vy; body.z += dt * body.vz;
        }
    }

    static double nbody(int steps) {
        Body[] bodies = new Body[5];
        for (int i = 0; i < bodies.length; i++) {
            bodies[i] = new Body(i, 2 * i, -i, 0.1 * i, 0, -0.05 * i, 1 + i);
        }
        for (int s = 0; s < steps; s++) {
            advance(bodies, 0.001);
        }
        return bodies[0].x;
    }

    static long sorting(int rounds) {
        long sum = 0;
        for (int r = 0; r < rounds; r++) {
            Integer[] values = new Integer[2000];
            for (int i = 0; i < values.length; i++) {
                values[i] = (i * 7919 + r) % 2003;
            }
            Arrays.sort(values, (p, q) -> Integer.compare(q, p));
            sum += values[0];
        }
        return sum;
    }

    static int hashing(int n) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            counts.merge("k" + (i % 1000), 1, Integer::sum);
        }
        return counts.size();
    }

    public static void main(String[] args) {
        int scale = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        System.out.println(nbody(400_000 * scale) + " " + sorting(150 * scale) + " " + hashing(300_000 * scale));
    }
}
