package acme.risk;

/** The vault of the planted program about how calls end (see {@link RiskMain}). */
public class Vault {
    /** The vault's mode: 1 while the teller serves, 2 while it checks (a field read at another event). */
    public static int mode = 1;
    private final int kind;

    public Vault(int kind) {
        this.kind = kind;
    }

    /** Returns {@code amount}; a negative one throws IllegalArgumentException, one over 1000 IllegalStateException. */
    public long take(int amount) {
        if (amount < 0) {
            throw new IllegalArgumentException("negative " + amount);
        }
        if (amount > 1000) {
            throw new IllegalStateException("too large " + amount);
        }
        return amount;
    }

    public int kind() {
        return kind;
    }
}
