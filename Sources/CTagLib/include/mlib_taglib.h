int mlib_taglib_placeholder(void);
