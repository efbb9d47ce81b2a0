import { testApp } from '../model/harness/test-server';

export const db = () => testApp().database.db;
