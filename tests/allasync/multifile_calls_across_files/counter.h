/* multifile_calls_across_files: what counter.c defines, and what it uses from main.c */
void count_up(int v);
int counter_total(void);
int scaled(int v);
