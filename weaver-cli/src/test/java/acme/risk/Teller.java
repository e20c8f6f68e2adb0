package acme.risk;

/** The teller of the planted program about how calls end (see {@link RiskMain}). */
public class Teller {
    /** 15 takes: 10 return (1..10, sum 55), 3 IllegalArgumentException, 2 IllegalStateException. */
    static final int[] SERVE = {1, -1, 2, 3, 2000, 4, -2, 5, 6, 3000, 7, 8, -3, 9, 10};
    /** 5 takes: 2 return (100, 200), 2 IllegalArgumentException, 1 IllegalStateException. */
    static final int[] CHECK = {100, -5, 5000, -6, 200};

    private final Vault vault;
    long served;
    int refused;

    public Teller(Vault vault) {
        this.vault = vault;
    }

    public void serve() {
        for (int a : SERVE) {
            try {
                served += vault.take(a);
            } catch (RuntimeException e) {
                refused++;
            }
        }
    }

    public void check() {
        for (int a : CHECK) {
            try {
                served += vault.take(a);
            } catch (RuntimeException e) {
                refused++;
            }
        }
    }
}
