#define API_VALUE 7u
