#define STEP 1
