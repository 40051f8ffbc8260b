/**
 * All of Mantine's core styles, layered like ./first-load.css. Imported by every page and lazy
 * piece that draws more than the first-load pages do: their chunk's stylesheet then arrives with them
 * (Vite loads a chunk's CSS before running it), and a borrower's first load of /login or step 1 does not
 * wait for it. The dashboard's charts bring their own (features/dashboard).
 */
import '@mantine/core/styles.layer.css';
