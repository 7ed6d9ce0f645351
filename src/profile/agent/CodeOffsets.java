/** A minimal class-file reader that finds the bytecode offset of every instruction of every method. */
package jresa.agent;

/**
 * ASM's tree API does not keep instruction offsets, and they cannot be recomputed from it (ASM reads
 * {@code ldc_w}, {@code goto_w} and {@code iload 0} as the same nodes as {@code ldc}, {@code goto} and
 * {@code iload_0}). Call sites are identified by the bytecode index of the invoke in the original
 * class file, so this reads the offsets from the original bytes: one array per method, in the order
 * the methods appear in the file (which is the order ASM visits them), null for methods without code.
 */
final class CodeOffsets {
    private CodeOffsets() {}

    /** Offsets of the instructions of each method, or null where a method has no Code attribute. */
    static int[][] read(byte[] b) {
        int count = u2(b, 8);
        int[] utf8Start = new int[count];
        int p = 10;
        for (int i = 1; i < count; i++) {
            int tag = b[p] & 0xFF;
            switch (tag) {
                case 1:
                    utf8Start[i] = p;
                    p += 3 + u2(b, p + 1);
                    break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                    p += 5;
                    break;
                case 5: case 6:
                    p += 9;
                    i++;
                    break;
                case 7: case 8: case 16: case 19: case 20:
                    p += 3;
                    break;
                case 15:
                    p += 4;
                    break;
                default:
                    throw new IllegalArgumentException("unknown constant pool tag " + tag);
            }
        }
        p += 6;
        p += 2 + 2 * u2(b, p);
        int fields = u2(b, p);
        p += 2;
        for (int f = 0; f < fields; f++) {
            p = skipMember(b, p);
        }
        int methods = u2(b, p);
        p += 2;
        int[][] result = new int[methods][];
        for (int m = 0; m < methods; m++) {
            int attributes = u2(b, p + 6);
            p += 8;
            for (int a = 0; a < attributes; a++) {
                int name = u2(b, p);
                int length = u4(b, p + 2);
                if (isCode(b, utf8Start[name])) {
                    int codeLength = u4(b, p + 10);
                    result[m] = offsets(b, p + 14, codeLength);
                }
                p += 6 + length;
            }
        }
        return result;
    }

    private static int skipMember(byte[] b, int p) {
        int attributes = u2(b, p + 6);
        p += 8;
        for (int a = 0; a < attributes; a++) {
            p += 6 + u4(b, p + 2);
        }
        return p;
    }

    private static boolean isCode(byte[] b, int utf8) {
        return utf8 != 0 && u2(b, utf8 + 1) == 4 && b[utf8 + 3] == 'C' && b[utf8 + 4] == 'o' && b[utf8 + 5] == 'd' && b[utf8 + 6] == 'e';
    }

    /** The offsets of the instructions in {@code b[start, start + length)}. */
    private static int[] offsets(byte[] b, int start, int length) {
        int[] out = new int[Math.max(4, length / 2)];
        int n = 0;
        int pc = 0;
        while (pc < length) {
            if (n == out.length) {
                int[] grown = new int[out.length * 2];
                System.arraycopy(out, 0, grown, 0, n);
                out = grown;
            }
            out[n++] = pc;
            pc += size(b, start, pc);
        }
        int[] exact = new int[n];
        System.arraycopy(out, 0, exact, 0, n);
        return exact;
    }

    /** The length in bytes of the instruction at {@code pc}. */
    private static int size(byte[] b, int start, int pc) {
        int op = b[start + pc] & 0xFF;
        switch (op) {
            case 16: case 18: case 21: case 22: case 23: case 24: case 25:
            case 54: case 55: case 56: case 57: case 58: case 169: case 188:
                return 2;
            case 17: case 19: case 20: case 132: case 178: case 179: case 180: case 181:
            case 182: case 183: case 184: case 187: case 189: case 192: case 193:
            case 198: case 199:
                return 3;
            case 197:
                return 4;
            case 185: case 186: case 200: case 201:
                return 5;
            case 196:
                return (b[start + pc + 1] & 0xFF) == 132 ? 6 : 4;
            case 170: {
                int q = (pc + 4) & ~3;
                int low = u4(b, start + q + 4);
                int high = u4(b, start + q + 8);
                return q - pc + 12 + 4 * (high - low + 1);
            }
            case 171: {
                int q = (pc + 4) & ~3;
                int pairs = u4(b, start + q + 4);
                return q - pc + 8 + 8 * pairs;
            }
            default:
                if (op >= 153 && op <= 168) {
                    return 3;
                }
                return 1;
        }
    }

    private static int u2(byte[] b, int p) {
        return ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
    }

    private static int u4(byte[] b, int p) {
        return ((b[p] & 0xFF) << 24) | ((b[p + 1] & 0xFF) << 16) | ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
    }
}
