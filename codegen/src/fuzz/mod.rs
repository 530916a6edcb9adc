pub mod schemas;
